"use client";

import type { DragEvent } from "react";
import { StateBadge } from "@/components/connections/badges";
import type { RoutingOrderConnection } from "@/lib/routing/orders";

export type RowRole = { kind: "first" } | { kind: "cascade"; step: number } | { kind: "skipped" };

function RoleBadge({ role }: { role: RowRole }) {
  if (role.kind === "first") return <span className="badge bg-brand-100 text-brand-700">Takes new invoices</span>;
  if (role.kind === "cascade") return <span className="badge bg-slate-100 text-slate-700">Cascade {role.step}</span>;
  return <span className="badge bg-slate-100 text-slate-600">Skipped while disabled</span>;
}

type DragHandlers = {
  onDragStart: (event: DragEvent<HTMLLIElement>) => void;
  onDragOver: (event: DragEvent<HTMLLIElement>) => void;
  onDrop: (event: DragEvent<HTMLLIElement>) => void;
  onDragEnd: () => void;
};

/** One connection of a routing order: its place, what it does there, and the keyboard controls to move it. */
export function RoutingRow({
  connection,
  index,
  count,
  role,
  editable,
  dragging,
  dropTarget,
  error,
  onMove,
  drag,
}: {
  connection: RoutingOrderConnection;
  index: number;
  count: number;
  role: RowRole;
  editable: boolean;
  dragging: boolean;
  dropTarget: boolean;
  error?: string;
  onMove: (delta: -1 | 1) => void;
  drag: DragHandlers;
}) {
  const moveButton = (delta: -1 | 1) => {
    const blocked = delta === -1 ? index === 0 : index === count - 1;
    const word = delta === -1 ? "up" : "down";
    return (
      <button
        type="button"
        className="btn-secondary px-2 py-1 aria-disabled:cursor-not-allowed aria-disabled:opacity-50 max-md:min-w-11"
        aria-label={`Move ${connection.label} ${word}`}
        aria-disabled={blocked || undefined}
        data-move={word}
        onClick={() => (blocked ? undefined : onMove(delta))}
      >
        <span aria-hidden="true">{delta === -1 ? "↑" : "↓"}</span>
        <span className="hidden sm:inline">{delta === -1 ? "Up" : "Down"}</span>
      </button>
    );
  };
  return (
    <li
      data-testid="routing-row"
      data-connection-id={connection.connectionId}
      draggable={editable}
      {...(editable ? drag : {})}
      className={`flex flex-wrap items-center gap-x-3 gap-y-2 border-t py-3 first:border-t-0 ${dropTarget ? "border-t-2 border-t-brand-500" : "border-slate-100"} ${dragging ? "opacity-40" : ""} ${editable ? "cursor-grab active:cursor-grabbing" : ""}`}
    >
      {editable ? (
        <span aria-hidden="true" className="hidden select-none text-slate-400 sm:inline" title="Drag to reorder">
          ⠿
        </span>
      ) : null}
      <span className="w-6 text-right font-mono text-sm text-slate-600 tabular-nums">{index + 1}</span>
      <div className="min-w-0 flex-1 basis-40">
        <p className={`font-medium break-words ${connection.enabled ? "" : "text-slate-500"}`}>{connection.label}</p>
        <p className="text-xs text-slate-600">
          {connection.providerName} · {connection.kindLabel}
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <StateBadge enabled={connection.enabled} />
        <RoleBadge role={role} />
      </div>
      {editable ? (
        <div className="flex gap-1">
          {moveButton(-1)}
          {moveButton(1)}
        </div>
      ) : null}
      {error ? (
        <p className="field-error w-full" role="alert">
          {error}
        </p>
      ) : null}
    </li>
  );
}
