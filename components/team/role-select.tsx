import { ROLE_NAMES, ROLE_ORDER } from "@/lib/identity/permissions";

/** The roles of the permission table, in its order, as options of a select. */
export function RoleOptions() {
  return (
    <>
      {ROLE_ORDER.map((role) => (
        <option key={role} value={role}>
          {ROLE_NAMES[role]}
        </option>
      ))}
    </>
  );
}
