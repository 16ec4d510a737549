import { describe, expect, it } from "vitest";
import { createRouteLabeler, routeTemplate } from "./routes";

describe("route labels: templates, never the path a client sent", () => {
  it("writes a route folder as a template with braces, drops route groups, and counts the API's catch-all 404s as other", () => {
    expect(routeTemplate("/api/commerce/payment-invoices/[id]")).toBe("/api/commerce/payment-invoices/{id}");
    expect(routeTemplate("/sandbox/[slug]/[[...path]]")).toBe("/sandbox/{slug}/{path...}");
    expect(routeTemplate("/api/auth/[...nextauth]")).toBe("/api/auth/{nextauth...}");
    expect(routeTemplate("/(dashboard)/invoices/[id]")).toBe("/invoices/{id}");
    expect(routeTemplate("/")).toBe("/");
    for (const notFound of ["/api", "/api/[...rest]", "/api/commerce/[[...rest]]", "/_not-found"]) expect(routeTemplate(notFound)).toBe("other");
  });

  it("labels Next's paths by the build's routes in their order, anything else as other", () => {
    // As in .next/routes-manifest.json: static routes, then dynamic ones in Next's precedence.
    const label = createRouteLabeler({
      staticRoutes: [
        { page: "/invoices/new", regex: "^/invoices/new(?:/)?$" },
        { page: "/api/health", regex: "^/api/health(?:/)?$" },
      ],
      dynamicRoutes: [
        { page: "/invoices/[id]", regex: "^/invoices/([^/]+?)(?:/)?$" },
        { page: "/pay/[id]/pay", regex: "^/pay/([^/]+?)/pay(?:/)?$" },
        { page: "/api/[...rest]", regex: "^/api/(.+?)(?:/)?$" },
      ],
    });
    expect(label("/invoices/new")).toBe("/invoices/new");
    expect(label("/invoices/new/")).toBe("/invoices/new");
    expect(label("/invoices/cpi_0123456789abcdefghijkl")).toBe("/invoices/{id}");
    expect(label("/pay/cpi_0123456789abcdefghijkl/pay")).toBe("/pay/{id}/pay");
    expect(label("/api/health")).toBe("/api/health");
    expect(label("/api/users/someone@example.com")).toBe("other");
    expect(label("/wp-admin/setup.php")).toBe("other");
    expect(label("/_next/static/chunks/app-1234.js")).toBe("/_next/{asset}");
  });
});
