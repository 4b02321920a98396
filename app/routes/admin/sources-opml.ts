import type { LoaderFunctionArgs } from "react-router";
import { requireAdmin } from "~/app/lib/admin.server";
import { exportSourcesOpml, OPML_CONTENT_TYPE, OPML_FILENAME } from "~/domain/sources/opml";

/** Every source with a feed URL as an OPML 2.0 download (admin only). */
export async function loader(args: LoaderFunctionArgs) {
  await requireAdmin(args);
  const body = await exportSourcesOpml({ sources: args.context.repos.sources });
  return new Response(body, {
    headers: {
      "Content-Type": OPML_CONTENT_TYPE,
      "Content-Disposition": `attachment; filename="${OPML_FILENAME}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
