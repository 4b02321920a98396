/** A change came from another address than SITE_URL: say which address works, and how to change it. */
export function WrongAddress({ message, siteOrigin }: { message: string; siteOrigin: string }) {
  return (
    <main id="main" className="flex min-h-screen items-center justify-center bg-ink p-4">
      <div role="alert" className="w-full max-w-lg rounded-3xl border-4 border-ink bg-paper p-8 shadow-[8px_8px_0_0_var(--color-alarm)]">
        <h1 className="font-display text-3xl font-extrabold">Wrong address for changes</h1>
        <p className="mt-3">{message}</p>
        <div className="mt-6 flex flex-wrap gap-3">
          <a href={`${siteOrigin}/admin`} className="rounded-full bg-ink px-4 py-2 font-bold text-acid">
            Open {siteOrigin}/admin
          </a>
        </div>
      </div>
    </main>
  );
}
