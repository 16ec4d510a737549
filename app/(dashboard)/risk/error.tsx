"use client";

import { RouteError } from "@/components/shell/route-states";

export default RouteError;
