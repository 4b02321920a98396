import { renderToStaticMarkup } from "react-dom/server";
import { expect, test } from "vitest";
import { ErrorBoundary } from "./root";

type Props = Parameters<typeof ErrorBoundary>[0];

test("the crash screen offers a reload and collapsible error details", () => {
  const html = renderToStaticMarkup(<ErrorBoundary {...({ error: new Error("kaboom"), params: {} } as unknown as Props)} />);
  expect(html).toContain("Something went wrong");
  expect(html).toContain("The page encountered an error and crashed.");
  expect(html).toMatch(/<button[^>]*>Reload Page<\/button>/);
  expect(html).toMatch(/<details[^>]*><summary[^>]*>Error Details<\/summary>/);
  expect(html).toContain("kaboom");
});

test("a 404 reaching the root shows the not-found page", () => {
  const error = { status: 404, statusText: "Not Found", internal: false, data: null };
  const html = renderToStaticMarkup(<ErrorBoundary {...({ error, params: {} } as unknown as Props)} />);
  expect(html).toContain("Oops! Page not found");
  expect(html).not.toContain("Reload Page");
});
