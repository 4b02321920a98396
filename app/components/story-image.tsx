import { useEffect, useRef, useState } from "react";

export const LOGO_URL = "/logo.svg";

/** A story's picture, lazy loaded; a missing or broken image shows the logo instead. */
export function StoryImage({ src, alt, className }: { src: string | null; alt: string; className?: string }) {
  const [broken, setBroken] = useState(false);
  const ref = useRef<HTMLImageElement>(null);
  // An image that failed before hydration never fires onError for React: check once mounted.
  useEffect(() => {
    const img = ref.current;
    if (img && img.complete && img.naturalWidth === 0 && src) setBroken(true);
  }, [src]);
  const fallback = !src || broken;
  return (
    <img
      ref={ref}
      src={fallback ? LOGO_URL : src}
      alt={alt}
      loading="lazy"
      decoding="async"
      onError={() => setBroken(true)}
      className={`${className ?? ""} ${fallback ? "bg-paper-deep object-contain p-8" : "object-cover"}`}
    />
  );
}
