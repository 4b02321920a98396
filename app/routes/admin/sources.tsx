import { requireAdmin } from "~/app/lib/admin.server";
import type { Route } from "./+types/sources";

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  return {};
}

export default function Sources() {
  return <h1 className="font-display text-4xl font-extrabold">Sources</h1>;
}
