// The request log's encoder thread (lib/request-log/writer.ts starts it): redacts and encodes each
// slice of requests (./encode.ts) off the thread that answers requests, and hands the bytes back
// without a copy. Node runs this file as it is; tsx, registered here, loads the TypeScript.
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { encodeSlice } = await import("./encode.ts");

parentPort.on("message", ({ id, entries, format }) => {
  try {
    const slice = encodeSlice(entries, format, workerData.columns);
    parentPort.postMessage({ id, slice }, [slice.bytes.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
parentPort.postMessage({ ready: true });
