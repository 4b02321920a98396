import { requireAdmin } from "~/app/lib/admin.server";
import type { LoaderFunctionArgs } from "react-router";

// Placeholder until this endpoint is built.
export async function loader(args: LoaderFunctionArgs) {
  await requireAdmin(args);
  throw new Response("Not Found", { status: 404 });
}
