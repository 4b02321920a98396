import { data } from "react-router";
import { NotFound } from "~/app/components/not-found";
import type { Route } from "./+types/not-found";

export function meta(): Route.MetaDescriptors {
  return [{ title: "Page not found | Oddwire" }, { name: "robots", content: "noindex" }];
}

export function loader({ context, request }: Route.LoaderArgs) {
  context.logger.warn({ path: new URL(request.url).pathname }, "page not found");
  return data(null, { status: 404 });
}

export default function NotFoundRoute() {
  return <NotFound />;
}
