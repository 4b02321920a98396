import { Link } from "react-router";
import { requireAdmin } from "~/app/lib/admin.server";
import { Notice } from "~/app/components/states";
import { PageHeader } from "~/app/components/admin/page-header";
import type { Route } from "./+types/coming-soon";

/** The screens the navigation lists before they are built: inside the back office, saying so plainly. */
const SCREENS: Record<string, { title: string; what: string }> = {
  "/admin/social": {
    title: "Social Media",
    what: "Published stories will be posted to the site's Facebook Page from here, with a record of every post.",
  },
};

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  const screen = SCREENS[new URL(args.request.url).pathname.replace(/\/$/, "")];
  if (!screen) throw new Response("Not Found", { status: 404 });
  return screen;
}

export function meta({ data }: Route.MetaArgs): Route.MetaDescriptors {
  return [{ title: `${data?.title ?? "Admin"} | Oddwire` }, { name: "robots", content: "noindex" }];
}

export default function ComingSoon({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHeader title={loaderData.title} />
      <Notice title="Coming soon" heading="h2">
        <p>{loaderData.what}</p>
        <p className="mt-3">
          Until then, stories arrive through{" "}
          <Link to="/admin/sources" className="font-semibold text-ufo-deep underline decoration-2 underline-offset-2 hover:text-ink">
            Sources
          </Link>{" "}
          and are reviewed under{" "}
          <Link to="/admin/stories?status=pending" className="font-semibold text-ufo-deep underline decoration-2 underline-offset-2 hover:text-ink">
            Stories
          </Link>
          .
        </p>
      </Notice>
    </>
  );
}
