import { RouteLoading } from "@/components/shell/route-loading";

export default function Loading() {
  return <RouteLoading />;
}
