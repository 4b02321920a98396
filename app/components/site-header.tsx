import { Link, NavLink } from "react-router";
import { SearchDropdown } from "./search-dropdown";

export type NavCategory = { name: string; slug: string };

/** Skip links, then the header of every public page: logo, title, search and the category bar. */
export function SiteHeader({ categories }: { categories: NavCategory[] | undefined }) {
  const skip =
    "sr-only z-50 rounded bg-acid px-4 py-2 font-bold text-ink focus:not-sr-only focus:fixed focus:top-2 focus:left-2";
  return (
    <>
      <a href="#main" className={skip}>
        Skip to content
      </a>
      <a href="#category-nav" className={skip}>
        Skip to navigation
      </a>
      <a href="#search" className={skip}>
        Skip to search
      </a>
      <header className="bg-ink text-paper">
        <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-4">
          <Link to="/" className="flex items-center gap-3 rounded-lg" aria-label="Oddwire home">
            <img src="/logo.svg" alt="Oddwire logo" width={44} height={44} className="h-11 w-11" />
            <span className="font-display text-3xl leading-none font-extrabold tracking-tight">
              Odd<span className="text-acid">wire</span>
            </span>
          </Link>
          <p className="ml-4 hidden text-sm text-paper/70 md:block">Weird, strange and odd news. All true.</p>
          <div className="ml-auto">
            <SearchDropdown />
          </div>
        </div>
        <nav id="category-nav" aria-label="Categories" tabIndex={-1} className="border-t border-paper/15 bg-ink">
          {categories === undefined ? (
            <p className="mx-auto max-w-6xl px-4 py-3 text-sm text-paper/70">Loading categories...</p>
          ) : (
            <ul className="mx-auto flex max-w-6xl gap-2 overflow-x-auto px-4 py-3 [scrollbar-width:thin]">
              {categories.map((category) => (
                <li key={category.slug} className="shrink-0">
                  <NavLink
                    to={`/category/${category.slug}`}
                    className={({ isActive }) =>
                      `block rounded-full px-3 py-1.5 text-sm font-bold whitespace-nowrap transition ${
                        isActive ? "bg-acid text-ink" : "text-paper/85 hover:bg-paper/10 hover:text-paper"
                      }`
                    }
                  >
                    {category.name}
                  </NavLink>
                </li>
              ))}
            </ul>
          )}
        </nav>
      </header>
    </>
  );
}
