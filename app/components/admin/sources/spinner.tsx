/** A small turning ring for busy buttons; hidden from assistive technology, which reads the button's text. */
export function Spinner({ className = "h-4 w-4" }: { className?: string }) {
  return <span aria-hidden="true" className={`inline-block animate-spin rounded-full border-2 border-current border-t-transparent ${className}`} />;
}
