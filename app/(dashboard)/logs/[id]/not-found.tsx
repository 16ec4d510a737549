import { RouteNotFound } from "@/components/shell/route-states";

export default function NotFound() {
  return <RouteNotFound />;
}
