import { useEffect, useRef, useState } from "react";
import { imageHeight, storyImageSources, type StoryImageSources } from "~/lib/story-image";

export const LOGO_URL = "/logo.svg";

// Every story picture is drawn in a 16:9 box; the variants are cropped to it, so width and height
// are known before anything loads.
const FRAME_WIDTH = 1200;
const FRAME_HEIGHT = imageHeight(FRAME_WIDTH);

/**
 * How a picture loads: `lazy` below the fold, `eager` in the first screen, `priority` for the one
 * picture that is the page's largest paint (the featured story, a story's own picture).
 */
export type ImageLoading = "lazy" | "eager" | "priority";

type StoryImageProps = {
  alt: string;
  className?: string;
  loading?: ImageLoading;
  /** A small thumbnail: the logo fallback gets a thin margin rather than the card's wide one. */
  thumbnail?: boolean;
} & (
  | {
      /** A published story: its picture as the site serves it. */
      story: { id: number; imageUrl: string | null };
      /** The width the picture takes in the layout, as the `sizes` attribute says it. */
      sizes: string;
    }
  | {
      /** A picture by its own address (the back office shows stories that are not published). */
      src: string | null;
    }
);

/**
 * A story's picture: on the public site served by the site itself (`/img/...` variants as a srcset,
 * or the site's own file); a missing or broken image shows the logo instead.
 */
export function StoryImage(props: StoryImageProps) {
  const { alt, className, loading = "lazy", thumbnail = false } = props;
  const sources: StoryImageSources | null =
    "story" in props ? storyImageSources(props.story, props.sizes) : props.src ? { src: props.src, width: FRAME_WIDTH, height: FRAME_HEIGHT } : null;
  const src = sources?.src ?? null;
  const [brokenSrc, setBrokenSrc] = useState<string | null>(null);
  const ref = useRef<HTMLImageElement>(null);
  // An image that failed before hydration never fires onError for React: check once mounted.
  useEffect(() => {
    const img = ref.current;
    if (img && img.complete && img.naturalWidth === 0 && src) setBrokenSrc(src);
  }, [src]);
  const fallback = !sources || brokenSrc === src;
  return (
    <img
      ref={ref}
      alt={alt}
      loading={loading === "lazy" ? "lazy" : "eager"}
      fetchPriority={loading === "priority" ? "high" : undefined}
      decoding="async"
      sizes={fallback ? undefined : sources.sizes}
      srcSet={fallback ? undefined : sources.srcSet}
      src={fallback ? LOGO_URL : sources.src}
      width={FRAME_WIDTH}
      height={FRAME_HEIGHT}
      onError={() => setBrokenSrc(src)}
      // The paper colour shows while the picture loads.
      className={`${className ?? ""} bg-paper-deep ${fallback ? `object-contain ${thumbnail ? "p-1" : "p-8"}` : "object-cover"}`}
    />
  );
}
