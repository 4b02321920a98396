import { Link } from "react-router";

/** The 404 page's body. */
export function NotFound() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center gap-5 py-10 text-center">
      <img src="/logo.svg" alt="" className="h-20 w-20 -rotate-6" />
      <h1 className="font-display text-5xl font-extrabold">Oops! Page not found</h1>
      <p className="text-ink/70">Even for us, this page is too weird to exist.</p>
      <Link to="/" className="rounded-full bg-ink px-6 py-2.5 font-bold text-acid hover:bg-ufo hover:text-white">
        Back to Home
      </Link>
    </div>
  );
}
