"use client";

import { useEffect, useRef, useState, useTransition, type DragEvent } from "react";
import { notify } from "@/components/feedback";
import { FormAlert, SubmitButton } from "@/components/forms/field";
import { useUnsavedChanges } from "@/components/forms/use-unsaved-changes";
import { ModeBadge } from "@/components/connections/badges";
import { saveRoutingOrderAction } from "@/lib/actions/routing";
import type { RoutingOrder, RoutingOrderConnection } from "@/lib/routing/orders";
import { moveItem } from "./move";
import { useClearedOnRollback } from "./replaced-event";
import { RoutingRow, type RowRole } from "./routing-row";
import { RoutingRulesEditor } from "./routing-rules-editor";

/** A routing order as the page hands it over: plain JSON, the save time as ISO text. */
export type RoutingOrderView = Omit<RoutingOrder, "updatedAt"> & { updatedAt: string | null };

function rolesOf(list: readonly RoutingOrderConnection[]): RowRole[] {
  let step = 0;
  return list.map((connection) => {
    if (!connection.enabled) return { kind: "skipped" };
    step += 1;
    return step === 1 ? { kind: "first" } : { kind: "cascade", step: step - 1 };
  });
}

const idsOf = (list: readonly RoutingOrderConnection[]) => list.map((c) => c.connectionId);
const sameOrder = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id, i) => id === b[i]);

/**
 * One service in one mode: its connections first to last, reordered with Move up / Move
 * down (keyboard) or by dragging a row (mouse), saved as a whole by the server action. The outcome
 * is announced in a live region; problems show on their rows and in the alert.
 */
export function RoutingOrderEditor({ order, editable, updatedText }: { order: RoutingOrderView; editable: boolean; updatedText: string }) {
  const [list, setList] = useState(order.connections);
  const [savedList, setSavedList] = useState(order.connections);
  const [pending, startTransition] = useTransition();
  const [status, setStatus] = useState("");
  useClearedOnRollback(order.id, setStatus);
  const [alert, setAlert] = useState<string>();
  const [rowErrors, setRowErrors] = useState<Record<number, string>>({});
  const [dragging, setDragging] = useState<string>();
  const [over, setOver] = useState<string>();
  const listRef = useRef<HTMLOListElement>(null);
  const focusAfterMove = useRef<{ id: string; word: string }>(undefined);
  const dirty = !sameOrder(idsOf(list), idsOf(savedList));
  // A newer saved order from the server (this save's refresh, a rollback, a connection enabled):
  // adopted as the saved one, and shown unless the owner is in the middle of changes. The editor
  // is not remounted for it, so its status line ("Saved. …") stays for the person to read.
  const served = JSON.stringify(order.connections);
  const [adopted, setAdopted] = useState(served);
  if (served !== adopted) {
    setAdopted(served);
    setSavedList(order.connections);
    if (!dirty) setList(order.connections);
  }
  useUnsavedChanges(dirty);
  // A single connection has nothing to be ordered against.
  const reorderable = editable && list.length > 1;
  const domId = `routing-${order.id.replace(/[^a-z0-9_-]/gi, "-")}`;

  useEffect(() => {
    const target = focusAfterMove.current;
    focusAfterMove.current = undefined;
    if (!target) return;
    listRef.current?.querySelector<HTMLButtonElement>(`li[data-connection-id="${target.id}"] button[data-move="${target.word}"]`)?.focus();
  }, [list]);

  const moveTo = (from: number, to: number, how: string) => {
    const moved = list[from];
    if (!moved || to < 0 || to >= list.length || from === to) return;
    setList(moveItem(list, from, to));
    setRowErrors({});
    setStatus(`${moved.label} ${how} to position ${to + 1} of ${list.length}. Not saved yet.`);
  };

  const onMove = (index: number, delta: -1 | 1) => {
    focusAfterMove.current = { id: list[index]!.connectionId, word: delta === -1 ? "up" : "down" };
    moveTo(index, index + delta, "moved");
  };

  const dragHandlers = (connection: RoutingOrderConnection) => ({
    onDragStart: (event: DragEvent<HTMLLIElement>) => {
      event.dataTransfer.effectAllowed = "move";
      event.dataTransfer.setData("text/plain", connection.connectionId);
      setDragging(connection.connectionId);
    },
    onDragOver: (event: DragEvent<HTMLLIElement>) => {
      if (!dragging) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = "move";
      setOver(connection.connectionId);
    },
    onDrop: (event: DragEvent<HTMLLIElement>) => {
      event.preventDefault();
      const from = list.findIndex((c) => c.connectionId === dragging);
      moveTo(
        from,
        list.findIndex((c) => c.connectionId === connection.connectionId),
        "dropped",
      );
      setDragging(undefined);
      setOver(undefined);
    },
    onDragEnd: () => {
      setDragging(undefined);
      setOver(undefined);
    },
  });

  const save = () => {
    if (!dirty) return setStatus("Nothing to save: this is the saved order.");
    startTransition(async () => {
      setAlert(undefined);
      setRowErrors({});
      setStatus("Saving…");
      const result = await saveRoutingOrderAction({ service: order.service, mode: order.mode, connectionIds: idsOf(list) });
      if (!result.ok) {
        const errors: Record<number, string> = {};
        for (const [field, message] of Object.entries(result.fieldErrors)) {
          const index = /^connectionIds\.(\d+)$/.exec(field)?.[1];
          if (index !== undefined) errors[Number(index)] = message;
        }
        setRowErrors(errors);
        setStatus("");
        setAlert(result.message ?? "The order was not saved: see the marked connections.");
        return;
      }
      setSavedList(list);
      const first = list.find((c) => c.enabled);
      const outcome = `New ${order.mode}-mode ${order.service} invoices go to ${first ? first.label : "no connection: every one is disabled"}.`;
      setStatus(`Saved. ${outcome}`);
      notify({ message: `Routing order saved. ${outcome}`, actions: [{ label: "Send a test invoice", href: "/invoices/new" }] });
      // The action's revalidatePath brings the page's new server parts back with its answer.
    });
  };

  const undo = () => {
    setList(savedList);
    setRowErrors({});
    setAlert(undefined);
    setStatus("Changes undone.");
  };

  const roles = rolesOf(list);
  return (
    <section className="card min-w-0" aria-labelledby={`${domId}-title`} data-testid="routing-order" data-order-id={order.id}>
      <header className="mb-2 flex flex-wrap items-center gap-2">
        <h2 id={`${domId}-title`} className="font-mono text-base font-semibold break-all">
          {order.service}
        </h2>
        <span className="badge bg-slate-100 text-slate-700">{order.currency}</span>
        <span className="badge bg-slate-100 text-slate-700">{order.direction === "payment" ? "Payment" : "Payout"}</span>
        <ModeBadge mode={order.mode} />
      </header>
      <p className="text-xs text-slate-600">{updatedText}</p>
      <RoutingRulesEditor
        service={order.service}
        mode={order.mode}
        currency={order.currency}
        rules={order.rules}
        options={order.connections.map((c) => ({ id: c.connectionId, label: c.label, enabled: c.enabled }))}
        editable={editable}
        domId={domId}
      />
      <h3 className="mt-4 border-t border-slate-100 pt-3 text-sm font-semibold">Default rule: the routing order</h3>
      <ol ref={listRef} className="mt-2" aria-label={`Routing order for ${order.service}, ${order.mode} mode`}>
        {list.map((connection, index) => (
          <RoutingRow
            key={connection.connectionId}
            connection={connection}
            index={index}
            count={list.length}
            role={roles[index]!}
            editable={reorderable}
            dragging={dragging === connection.connectionId}
            dropTarget={over === connection.connectionId && dragging !== connection.connectionId}
            error={rowErrors[index]}
            onMove={(delta) => onMove(index, delta)}
            drag={dragHandlers(connection)}
          />
        ))}
      </ol>
      {editable && !reorderable ? (
        <p className="mt-2 text-sm text-slate-600">The only connection offering this service in {order.mode} mode: nothing to reorder.</p>
      ) : null}
      {reorderable ? (
        <div className="mt-3 space-y-3">
          <FormAlert message={alert} />
          <div className="flex flex-wrap items-center gap-3">
            <form
              onSubmit={(event) => {
                event.preventDefault();
                save();
              }}
            >
              <SubmitButton pending={pending} pendingLabel="Saving…">
                Save order
              </SubmitButton>
            </form>
            {dirty && !pending ? (
              <button type="button" className="btn-secondary" onClick={undo}>
                Undo changes
              </button>
            ) : null}
            {dirty ? <span className="text-sm text-amber-800">Unsaved changes</span> : null}
          </div>
        </div>
      ) : null}
      <p role="status" aria-live="polite" className="mt-2 text-sm text-slate-700" data-testid="routing-status">
        {status}
      </p>
    </section>
  );
}
