import type { OperationView } from "@/lib/api/openapi/reference";
import { CodeBlock } from "./code-block";
import { MethodBadge } from "./method-badge";
import { SchemaTable } from "./schema-table";
import { TryIt } from "./try-it";

function Examples({ examples, what }: { examples: OperationView["responses"][number]["examples"]; what: string }) {
  return (
    <div className="space-y-3">
      {examples.map((example) => (
        <div key={example.name} className="space-y-1">
          <p className="text-sm">
            <span className="font-medium">{example.summary ?? example.name}</span>
            {example.description ? <span className="text-slate-600"> — {example.description}</span> : null}
          </p>
          <CodeBlock label={`${what}: ${example.summary ?? example.name}`}>{example.json}</CodeBlock>
        </div>
      ))}
    </div>
  );
}

/**
 * One operation, rendered on the server: method and path, what it does, its parameters, request body
 * and answers as tables, the examples, and the Try it island (its form loads when first opened).
 * Shown on its group's page (/docs/api/<tag>), at its operationId.
 */
export function OperationSection({ operation }: { operation: OperationView }) {
  const { id } = operation;
  return (
    <section id={id} data-operation={id} aria-labelledby={`${id}-title`} className="card min-w-0 scroll-mt-4 space-y-4 target:ring-2 target:ring-brand-600">
      <div className="space-y-1">
        <h3 id={`${id}-title`} className="flex flex-wrap items-center gap-2 text-base font-semibold">
          <MethodBadge method={operation.method} />
          <code className="font-mono text-sm wrap-anywhere">{operation.path}</code>
        </h3>
        <p className="text-sm text-slate-900">{operation.summary}</p>
        <p className="text-xs text-slate-600">
          <code className="font-mono">{id}</code> · {operation.needsKey ? "API key in the Authorization header" : "no API key needed"} ·{" "}
          <a href={`#${id}`} className="text-brand-700 underline" aria-label={`Link to this operation: ${operation.method} ${operation.path}`}>
            Link to this operation
          </a>
        </p>
      </div>
      {operation.description ? <p className="text-sm text-slate-700">{operation.description}</p> : null}

      {operation.parameters.length > 0 ? (
        <div className="space-y-2">
          <h4 className="text-sm font-semibold">Parameters</h4>
          <div className="overflow-x-auto">
            <table className="w-full min-w-[36rem] border-collapse text-left text-sm">
              <caption className="sr-only">
                Parameters of {operation.method} {operation.path}
              </caption>
              <thead>
                <tr className="border-b border-slate-200 text-xs text-slate-600">
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Name
                  </th>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    In
                  </th>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Type
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    Description
                  </th>
                </tr>
              </thead>
              <tbody>
                {operation.parameters.map((parameter) => (
                  <tr key={`${parameter.in}-${parameter.name}`} data-parameter={parameter.name} className="border-b border-slate-100 align-top">
                    <th scope="row" className="py-2 pr-3 font-normal">
                      <code className="font-mono text-slate-900 wrap-anywhere">{parameter.name}</code>
                      {parameter.required ? <span className="ml-1 badge bg-amber-100 text-amber-900">required</span> : null}
                    </th>
                    <td className="py-2 pr-3 text-slate-700">{parameter.in}</td>
                    <td className="py-2 pr-3 font-mono text-xs text-slate-700 wrap-anywhere">{parameter.type}</td>
                    <td className="py-2 text-slate-700">
                      {parameter.description ? <p>{parameter.description}</p> : null}
                      {parameter.enumValues ? <p className="mt-1 text-xs">One of: {parameter.enumValues.join(", ")}</p> : null}
                      {parameter.constraints.length > 0 ? (
                        <p className="mt-1 text-xs text-slate-600 wrap-anywhere">{parameter.constraints.join(" · ")}</p>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : null}

      {operation.requestBody ? (
        <div className="space-y-2">
          <h4 className="text-sm font-semibold">
            Request body{operation.requestBody.required ? " (required)" : ""}
            {operation.requestBody.schemaName ? <span className="font-normal text-slate-600"> · {operation.requestBody.schemaName}</span> : null}
          </h4>
          <p className="text-xs text-slate-600">Content-Type: {operation.requestBody.mediaTypes.join(" or ")}</p>
          <SchemaTable rows={operation.requestBody.rows} caption={`Request body of ${operation.method} ${operation.path}`} />
          {operation.requestBody.examples.length > 0 ? (
            <>
              <h5 className="text-sm font-semibold">Examples</h5>
              <Examples examples={operation.requestBody.examples} what="Request example" />
            </>
          ) : null}
        </div>
      ) : null}

      <div className="space-y-2">
        <h4 className="text-sm font-semibold">Responses</h4>
        <div className="overflow-x-auto">
          <table className="w-full min-w-[30rem] border-collapse text-left text-sm">
            <caption className="sr-only">
              Responses of {operation.method} {operation.path}
            </caption>
            <thead>
              <tr className="border-b border-slate-200 text-xs text-slate-600">
                <th scope="col" className="py-2 pr-3 font-medium">
                  Status
                </th>
                <th scope="col" className="py-2 pr-3 font-medium">
                  Meaning
                </th>
                <th scope="col" className="py-2 font-medium">
                  Body
                </th>
              </tr>
            </thead>
            <tbody>
              {operation.responses.map((response) => (
                <tr key={response.status} data-status={response.status} className="border-b border-slate-100 align-top">
                  <th scope="row" className={`py-2 pr-3 font-mono ${response.success ? "text-green-800" : "text-red-800"}`}>
                    {response.status}
                  </th>
                  <td className="py-2 pr-3 text-slate-700">
                    {response.description}
                    {/* X-Request-Id is on every answer (said above the operations): only other headers are named here. */}
                    {response.headers.some((header) => header.name !== "X-Request-Id") ? (
                      <p className="mt-1 text-xs text-slate-600">
                        Headers:{" "}
                        {response.headers
                          .filter((header) => header.name !== "X-Request-Id")
                          .map((header) => header.name)
                          .join(", ")}
                      </p>
                    ) : null}
                  </td>
                  <td className="py-2 text-xs">
                    {response.schemaName ? (
                      <a href={`#schema-${response.schemaName}`} className="font-mono text-brand-700 underline">
                        {response.schemaName}
                      </a>
                    ) : response.mediaTypes.length > 0 ? (
                      <span className="text-slate-600">{response.mediaTypes.join(", ")}</span>
                    ) : (
                      <span className="text-slate-600">none</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {operation.responses
          .filter((response) => response.examples.length > 0)
          .map((response) => (
            <div key={response.status} className="space-y-2">
              <h5 className="text-sm font-semibold">Example answer {response.status}</h5>
              <Examples examples={response.examples} what={`Answer ${response.status} example`} />
            </div>
          ))}
      </div>

      <TryIt
        operationId={id}
        method={operation.method}
        path={operation.path}
        pathParameters={operation.parameters.filter((parameter) => parameter.in === "path").map((parameter) => parameter.name)}
        hasQuery={operation.parameters.some((parameter) => parameter.in === "query")}
        examples={(operation.requestBody?.examples ?? []).map(({ name, summary, json }) => ({ name, label: summary ?? name, json }))}
        hasBody={operation.requestBody !== undefined}
        needsKey={operation.needsKey}
      />
    </section>
  );
}
