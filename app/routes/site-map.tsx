import { Link } from "react-router";
import { listCategories } from "~/domain/public/public-site";
import { LEGAL_PAGES } from "~/app/components/site-footer";
import { pageMeta, siteUrlFrom } from "~/app/lib/meta";
import type { Route } from "./+types/site-map";

export function meta({ matches }: Route.MetaArgs): Route.MetaDescriptors {
  return pageMeta({ title: "Site Map | Oddwire", siteUrl: siteUrlFrom(matches), path: "/sitemap" });
}

export async function loader({ context }: Route.LoaderArgs) {
  return { categories: await listCategories(context.publicRepos) };
}

const link = "font-semibold underline-offset-4 hover:text-ufo hover:underline";

export default function SiteMap({ loaderData }: Route.ComponentProps) {
  return (
    <div className="max-w-3xl">
      <h1 className="font-display text-4xl font-extrabold tracking-tight sm:text-5xl">Site Map</h1>
      <div className="mt-8 grid gap-8 sm:grid-cols-3">
        <section aria-labelledby="main-pages">
          <h2 id="main-pages" className="font-display text-2xl font-bold">
            Main Pages
          </h2>
          <ul className="mt-3 space-y-2">
            <li>
              <Link className={link} to="/">
                Home
              </Link>
            </li>
            <li>
              <Link className={link} to="/contact-us">
                Contact Us
              </Link>
            </li>
          </ul>
        </section>
        <section aria-labelledby="categories">
          <h2 id="categories" className="font-display text-2xl font-bold">
            Categories
          </h2>
          <ul className="mt-3 space-y-2">
            {loaderData.categories.map((c) => (
              <li key={c.slug}>
                <Link className={link} to={`/category/${c.slug}`}>
                  {c.name}
                </Link>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="legal">
          <h2 id="legal" className="font-display text-2xl font-bold">
            Legal
          </h2>
          <ul className="mt-3 space-y-2">
            {LEGAL_PAGES.map((page) => (
              <li key={page.path}>
                <Link className={link} to={page.path}>
                  {page.title}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}
