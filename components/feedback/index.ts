/** What a client component needs to confirm an action: `notify`. */
export { notify, type ToastAction } from "./toast-store";
