"use client";

export type ConnectionOption = { id: string; label: string; enabled: boolean };

/**
 * An ordered list of connections as plain selects ("1st", "2nd", …): each place is a native
 * select, so the list is built with the keyboard alone; places can be added and removed.
 */
export function ConnectionListField({
  idPrefix,
  legend,
  value,
  options,
  onChange,
  error,
}: {
  idPrefix: string;
  legend: string;
  value: string[];
  options: readonly ConnectionOption[];
  onChange: (next: string[]) => void;
  error?: string;
}) {
  const places = value.length === 0 ? [""] : value;
  const set = (index: number, id: string) => onChange(places.map((current, i) => (i === index ? id : current)).filter((id) => id !== ""));
  return (
    <fieldset className="min-w-0" aria-describedby={error ? `${idPrefix}-error` : undefined}>
      <legend className="label">{legend}</legend>
      <ol className="mt-1 space-y-2">
        {places.map((current, index) => (
          <li key={index} className="flex flex-wrap items-center gap-2">
            <label htmlFor={`${idPrefix}-${index}`} className="w-20 text-sm text-slate-700">
              {index === 0 ? "Try first" : `Then (${index + 1})`}
            </label>
            <select id={`${idPrefix}-${index}`} className="input w-auto min-w-0 flex-1" value={current} onChange={(event) => set(index, event.target.value)}>
              <option value="">Choose a connection</option>
              {options.map((option) => (
                <option key={option.id} value={option.id} disabled={option.id !== current && places.includes(option.id)}>
                  {option.label}
                  {option.enabled ? "" : " (disabled)"}
                </option>
              ))}
            </select>
            {places.length > 1 ? (
              <button type="button" className="btn-secondary px-2 py-1" onClick={() => onChange(places.filter((_, i) => i !== index))}>
                Remove
                <span className="sr-only">
                  {" "}
                  place {index + 1} of {legend}
                </span>
              </button>
            ) : null}
          </li>
        ))}
      </ol>
      {places.length < options.length && places.every((id) => id !== "") ? (
        <button type="button" className="btn-secondary mt-2 px-2 py-1" onClick={() => onChange([...places, ""])}>
          Add a fallback<span className="sr-only"> to {legend}</span>
        </button>
      ) : null}
      {error ? (
        <p id={`${idPrefix}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
