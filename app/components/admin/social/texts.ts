// The Social Media page's words: its areas, empty and loading texts, and its toasts
// (Facebook texts), word for word; the rest is ours.

export const SOCIAL_TEXT = {
  title: "Social Media",
  subtitle: "Facebook Integration",
  readyTitle: "Stories Ready to Post",
  composerTitle: "Facebook Post Composer",
  recentTitle: "Recent Facebook Posts",
  scheduledTitle: "Scheduled Posts",
  loadingStories: "Loading stories...",
  noStories: "No new stories available for posting",
  noPosts: "No posts yet",
  selectStory: "Select a story to create a Facebook post",
  posted: { title: "Success!", description: "Story posted to Facebook successfully!" },
  failedTitle: "Error",
  failedFallback: "Failed to post to Facebook",
  reposting: (title: string) => ({ title: "Story loaded for reposting", description: `Ready to repost: ${title}` }),
  repostLoadFailed: "Failed to load story for reposting",
} as const;

/** Facebook permissions posting needs, as the connection help names them. */
export const NEEDED_PERMISSIONS = ["pages_manage_posts", "pages_read_engagement"] as const;
