/** What a client component needs to confirm an action: `notify` now, `flash` when a navigation follows. */
export { dismiss, flash, notify, type ToastAction, type ToastInput } from "./toast-store";
