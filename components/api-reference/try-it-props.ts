/** What an operation's Try it island is given: the request it sends, and its examples. */
export type TryItProps = {
  operationId: string;
  method: string;
  path: string;
  pathParameters: string[];
  hasQuery: boolean;
  examples: { name: string; label: string; json: string }[];
  hasBody: boolean;
  needsKey: boolean;
};
