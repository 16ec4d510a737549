import { problem, type Problem } from "@/lib/problems";
import { ApiValidationError } from "./errors";

/**
 * The query parameters a route answers to. JSON:API: a server MUST answer 400 to a query parameter
 * it cannot process (`include`, `sort`, `fields[…]` it does not implement, and any other name), so
 * a typo never silently changes the answer. Names are matched exactly.
 */
export type QueryParameters = readonly (string | RegExp)[];

const accepts = (allowed: QueryParameters, name: string) => allowed.some((entry) => (typeof entry === "string" ? entry === name : entry.test(name)));
const describe = (allowed: QueryParameters) => allowed.map((entry) => (typeof entry === "string" ? entry : entry.source)).join(", ");

const JSON_API_FAMILIES: Readonly<Record<string, string>> = {
  include: "this API does not include related resources",
  sort: "this API does not sort on request: lists are newest first",
  fields: "this API does not offer sparse fieldsets",
};

function familyOf(name: string): string {
  const bracket = name.indexOf("[");
  return bracket === -1 ? name : name.slice(0, bracket);
}

/** Every refused parameter at once, each named in `source.parameter`. */
function queryProblems(search: URLSearchParams, allowed: QueryParameters): Problem[] {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const name of search.keys()) {
    if (seen.has(name) || accepts(allowed, name)) continue;
    seen.add(name);
    const reason = JSON_API_FAMILIES[familyOf(name)];
    const offered = allowed.length === 0 ? "this endpoint takes no query parameters" : `use one of ${describe(allowed)}`;
    problems.push(
      problem(
        reason ? "unsupported_parameter" : "unknown_parameter",
        reason ? `${name} is not supported: ${reason}` : `Unknown parameter ${name}; ${offered}`,
        [name],
      ),
    );
  }
  return problems;
}

export function assertQueryParameters(request: Request, allowed: QueryParameters): void {
  const problems = queryProblems(new URL(request.url).searchParams, allowed);
  if (problems.length > 0) throw new ApiValidationError(problems, { status: 400, source: "parameter" });
}
