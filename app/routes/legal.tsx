import { useLocation } from "react-router";
import { pageMeta, siteUrlFrom } from "~/app/lib/meta";
import type { Route } from "./+types/legal";

// The spec does not show these pages' text; each says plainly what it covers and how to reach us.
const PAGES: Record<string, { title: string; intro: string; body: string[] }> = {
  "/terms-of-service": {
    title: "Terms of Service",
    intro: "Oddwire collects odd news from around the world and links each story to its original source.",
    body: [
      "Headlines and short summaries are shown to help you find stories; the full stories belong to their publishers and are read on their sites.",
      "You may share links to Oddwire pages freely. Please do not copy our pages wholesale or scrape the site faster than a person would read it.",
      "We check stories before publishing them, but we cannot vouch for every detail reported by another outlet. If something is wrong, tell us and we will correct or remove it.",
    ],
  },
  "/privacy-policy": {
    title: "Privacy Policy",
    intro: "Reading Oddwire needs no account, and we keep as little about visitors as we can.",
    body: [
      "Our servers log each request (the page, the time and the response) to keep the site running and secure; these logs are kept for a short time and never sold.",
      "Editors who sign in have an account with an e-mail address and a password stored as a hash. We use their address only for their account.",
      "When you write to us, we keep your message only as long as we need it to answer you.",
    ],
  },
  "/cookie-policy": {
    title: "Cookie Policy",
    intro: "Visitors to the public site get no cookies from Oddwire: no tracking, no advertising cookies.",
    body: [
      "Editors who sign in to the back office get one session cookie, which keeps them signed in and is removed when they sign out or it expires.",
      "Links to original stories take you to other sites, which have their own cookie policies.",
    ],
  },
  "/accessibility-statement": {
    title: "Accessibility Statement",
    intro: "Oddwire should be usable by everyone, with any device, with a keyboard alone and with a screen reader.",
    body: [
      "Every page has a skip link, labelled controls, text alternatives for images and visible focus. We test each public page with automated accessibility checks.",
      "If anything on the site is hard to use for you, please tell us what and where, and we will fix it.",
    ],
  },
  "/contact-us": {
    title: "Contact Us",
    intro: "Seen something weird? Spotted a mistake? We would love to hear from you.",
    body: [
      "Send story tips with a link to the original report if you have one. We read every message, though we cannot answer them all.",
      "For corrections, tell us the page and what is wrong; we fix mistakes quickly.",
    ],
  },
};

export function meta({ location, matches }: Route.MetaArgs): Route.MetaDescriptors {
  const page = PAGES[location.pathname];
  return pageMeta({ title: `${page?.title ?? "Oddwire"} | Oddwire`, siteUrl: siteUrlFrom(matches), path: location.pathname });
}

export function loader({ context }: Route.LoaderArgs) {
  return { contactEmail: context.config.contactEmail };
}

export default function LegalPage({ loaderData }: Route.ComponentProps) {
  const { pathname } = useLocation();
  const page = PAGES[pathname] ?? PAGES["/contact-us"]!;
  const email = loaderData.contactEmail;
  return (
    <article className="max-w-3xl">
      <h1 className="font-display text-4xl font-extrabold tracking-tight sm:text-5xl">{page.title}</h1>
      <p className="mt-6 text-xl leading-relaxed">{page.intro}</p>
      {page.body.map((paragraph) => (
        <p key={paragraph} className="mt-4 leading-relaxed text-ink/85">
          {paragraph}
        </p>
      ))}
      <aside className="mt-10 rounded-2xl border-2 border-ink bg-white p-6 shadow-[4px_4px_0_0_var(--color-ink)]">
        <h2 className="font-display text-2xl font-bold">Get in touch</h2>
        <p className="mt-2">
          General questions:{" "}
          <a className="font-bold text-ufo underline" href={`mailto:${email}`}>
            {email}
          </a>
        </p>
        <p className="mt-2">
          Got a weird story?{" "}
          <a className="font-bold text-ufo underline" href={`mailto:${email}?subject=${encodeURIComponent("Story tip")}`}>
            Send us a story tip
          </a>
        </p>
      </aside>
    </article>
  );
}
