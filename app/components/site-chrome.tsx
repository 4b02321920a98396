/** The public page frame: skip link, header with logo and title, and footer. */
export function SiteHeader() {
  return (
    <>
      <a
        href="#main"
        className="sr-only z-50 rounded bg-ink px-4 py-2 font-semibold text-paper focus:not-sr-only focus:absolute focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <header className="border-b-4 border-ink bg-ink text-paper">
        <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-4">
          <a href="/" className="flex items-center gap-3 rounded-lg">
            <img src="/logo.svg" alt="" className="h-11 w-11" />
            <span className="font-display text-3xl font-extrabold tracking-tight">
              Odd<span className="text-acid">wire</span>
            </span>
          </a>
          <p className="ml-auto hidden text-sm text-paper/70 sm:block">Weird, strange and odd news, verified odd.</p>
        </div>
      </header>
    </>
  );
}

export function SiteFooter({ contactEmail }: { contactEmail: string }) {
  return (
    <footer className="mt-16 border-t-4 border-ink bg-paper-deep">
      <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-8 text-sm sm:flex-row sm:items-center sm:justify-between">
        <p className="font-display text-lg font-bold">The news that makes you look twice.</p>
        <p>
          Tips and questions:{" "}
          <a className="font-semibold underline" href={`mailto:${contactEmail}`}>
            {contactEmail}
          </a>
        </p>
        <p>© 2025 Oddwire</p>
      </div>
    </footer>
  );
}
