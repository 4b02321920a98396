import { Link } from "react-router";

export const LEGAL_PAGES = [
  { path: "/terms-of-service", title: "Terms of Service" },
  { path: "/privacy-policy", title: "Privacy Policy" },
  { path: "/cookie-policy", title: "Cookie Policy" },
  { path: "/accessibility-statement", title: "Accessibility Statement" },
] as const;

/** The footer of every public page: tagline, contact, site map, social and legal links, copyright. */
export function SiteFooter({ contactEmail, socialUrl }: { contactEmail: string; socialUrl: string }) {
  return (
    <footer className="mt-20 border-t-4 border-ink bg-ink text-paper">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-[2fr_1fr_1fr]">
        <div>
          <p className="font-display text-2xl font-extrabold">
            Odd<span className="text-acid">wire</span>
          </p>
          <p className="mt-2 max-w-sm text-paper/80">The news that makes you look twice. Weird, strange and odd stories from around the world, always linked to the source.</p>
        </div>
        <nav aria-label="Site">
          <h2 className="text-xs font-bold tracking-widest text-acid uppercase">Oddwire</h2>
          <ul className="mt-3 space-y-2">
            <li>
              <a className="underline-offset-4 hover:underline" href={`mailto:${contactEmail}`}>
                {contactEmail}
              </a>
            </li>
            <li>
              <Link className="underline-offset-4 hover:underline" to="/contact-us">
                Contact Us
              </Link>
            </li>
            <li>
              <Link className="underline-offset-4 hover:underline" to="/sitemap">
                Site Map
              </Link>
            </li>
            <li>
              <a className="underline-offset-4 hover:underline" href={socialUrl} target="_blank" rel="noopener noreferrer">
                Oddwire on Facebook<span className="sr-only"> (opens in a new tab)</span>
              </a>
            </li>
          </ul>
        </nav>
        <nav aria-label="Legal">
          <h2 className="text-xs font-bold tracking-widest text-acid uppercase">Legal</h2>
          <ul className="mt-3 space-y-2">
            {LEGAL_PAGES.map((page) => (
              <li key={page.path}>
                <Link className="underline-offset-4 hover:underline" to={page.path}>
                  {page.title}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <p className="border-t border-paper/15 py-4 text-center text-sm text-paper/70">© 2025 Oddwire. All rights reserved.</p>
    </footer>
  );
}
