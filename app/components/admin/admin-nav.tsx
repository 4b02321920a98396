import { useId, useRef, useState, type KeyboardEvent } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { CloseIcon, MenuIcon } from "~/app/components/icons";
import { signOutAndReturn } from "~/app/lib/auth-client";

/** The back office's sections, in the sidebar's order (spec: Admin layout). */
export const ADMIN_NAV = [
  { to: "/admin", label: "Dashboard" },
  { to: "/admin/stories", label: "Stories" },
  { to: "/admin/categories", label: "Categories" },
  { to: "/admin/sources", label: "Sources" },
  { to: "/admin/url-que", label: "URL Que" },
  { to: "/admin/social", label: "Social Media" },
  { to: "/admin/users", label: "Users" },
] as const;

const ITEM = "block rounded-lg px-3 py-2.5 text-sm font-bold lg:py-2";

/**
 * The admin sidebar. From the lg breakpoint it is a column beside the page; narrower, a bar with the
 * brand and a Menu button that shows the whole list in the page's flow (nothing hidden behind a
 * sideways scroll, nothing overlaid to trap focus in). The list closes on Escape, giving focus back to
 * the button, and when a section is chosen.
 */
export function AdminNav({ email, hydrated }: { email: string; hydrated: boolean }) {
  const { pathname, search } = useLocation();
  const here = `${pathname}${search}`;
  // The menu is open on the page where it was opened: going anywhere else closes it, and so does
  // choosing a link of its own (the section already shown, or View Site's new tab).
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === here;
  const button = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  const close = () => setOpenOn(null);
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || !open) return;
    event.preventDefault();
    close();
    button.current?.focus();
  };

  return (
    <aside className="bg-ink text-paper lg:min-h-screen" onKeyDown={closeOnEscape}>
      <div className="flex items-center justify-between gap-3 px-5 py-3 lg:py-5">
        <div className="flex items-center gap-2">
          <img src="/logo.svg" alt="" className="h-9 w-9" />
          <span className="font-display text-xl font-extrabold">
            Odd<span className="text-acid">wire</span> <span className="text-sm text-paper/60">Admin</span>
          </span>
        </div>
        <button
          ref={button}
          type="button"
          aria-expanded={open}
          aria-controls={menuId}
          disabled={!hydrated}
          onClick={() => setOpenOn(open ? null : here)}
          className="flex items-center gap-2 rounded-lg border-2 border-paper/30 px-3 py-1.5 text-sm font-bold hover:bg-paper/10 lg:hidden"
        >
          {open ? <CloseIcon className="h-5 w-5" /> : <MenuIcon className="h-5 w-5" />}
          Menu
        </button>
      </div>
      <div id={menuId} className={`${open ? "block" : "hidden"} border-t border-paper/15 pt-2 lg:block lg:border-0 lg:pt-0`}>
        <nav aria-label="Admin">
          <ul className="flex flex-col gap-1 px-3 pb-3">
            {ADMIN_NAV.map((item) => (
              <li key={item.to}>
                {/* `end`: the active item is the one whose path matches exactly (spec: Admin layout). */}
                <NavLink to={item.to} end onClick={close} className={({ isActive }) => `${ITEM} ${isActive ? "bg-acid text-ink" : "text-paper/85 hover:bg-paper/10"}`}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex flex-col items-stretch gap-1 border-t border-paper/15 px-3 pt-2 pb-5 lg:border-0 lg:pt-0">
          <Link to="/" target="_blank" rel="noopener noreferrer" onClick={close} className={`${ITEM} text-paper/85 hover:bg-paper/10`}>
            View Site<span className="sr-only"> (opens in a new tab)</span>
          </Link>
          <button type="button" disabled={!hydrated} onClick={signOutAndReturn} className={`${ITEM} text-left text-paper/85 hover:bg-paper/10`}>
            Sign Out
          </button>
          <p className="truncate px-3 pt-1 text-xs text-paper/50">{email}</p>
        </div>
      </div>
    </aside>
  );
}
