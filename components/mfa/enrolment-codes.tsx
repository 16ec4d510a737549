"use client";

import { useRouter } from "next/navigation";
import { createContext, useContext, useState, type ReactNode } from "react";
import { RecoveryCodes } from "./recovery-codes";

const ShowCodes = createContext<((codes: string[]) => void) | undefined>(undefined);

/**
 * Shows the recovery codes that turning two-factor on answers, in place of the page's sections.
 * Held here, above the sections, because the action also signs this browser in again: the new
 * session cookie makes Next render the page anew as "on", which would drop the enrolment form, and
 * the codes with it, before they are read.
 */
export function EnrolmentCodes({ afterDone, children }: { afterDone: string; children: ReactNode }) {
  const [codes, setCodes] = useState<string[]>();
  const router = useRouter();
  if (codes) {
    return (
      <section className="card max-w-3xl" aria-label="Two-factor authentication is on">
        <RecoveryCodes
          codes={codes}
          doneLabel="I have saved my recovery codes"
          onDone={() => {
            setCodes(undefined);
            router.push(afterDone);
            router.refresh();
          }}
        />
      </section>
    );
  }
  return <ShowCodes.Provider value={setCodes}>{children}</ShowCodes.Provider>;
}

/** For the enrolment form: hands the new recovery codes to `EnrolmentCodes`. */
export function useShowEnrolmentCodes(): (codes: string[]) => void {
  const show = useContext(ShowCodes);
  if (!show) throw new Error("useShowEnrolmentCodes outside EnrolmentCodes");
  return show;
}
