// The CLI's commands and its help: what `oddwire --help` prints and which module runs each command.
// Kept apart from the commands' code, so that the help, and the choice of a command, load nothing else.

export const CORE_COMMANDS = ["migrate", "seed", "user:create", "user:grant-admin", "parse-feed", "validate-feed", "extract", "source:add", "ingest"] as const;
export const CRAWL_COMMANDS = ["discover", "queue", "scrape-queue", "parse-sitemap", "robots-check"] as const;
export const IMAGE_COMMANDS = ["enhance-images", "probe-image"] as const;
export const FACEBOOK_COMMANDS = ["facebook:check", "facebook:post"] as const;
export const BACKUP_COMMANDS = ["backup", "restore"] as const;
export const TRIAGE_COMMANDS = ["review", "triage", "source:stats"] as const;

export const HELP = `Usage: oddwire <command> [options]

Commands:
  serve [--demo]                                   migrate, create default categories and serve the site
                                                   (--demo also loads the demo content and admin)
  migrate                                          apply database migrations
  seed [--demo]                                    create the default categories; --demo loads the demo
                                                   content and the demo admin (idempotent)
  user:create --email E --password P [--admin]     create a user who can sign in
  user:grant-admin E                               give an existing user the admin flag
  normalize-url URL...                             print {"input","normalized","hash"} per URL
                                                   (reads one URL per line from stdin when none given)
  parse-feed FILE|URL                              parse a feed: {format, title, siteUrl, items}
  validate-feed URL                                the RSS Validator's result for a feed URL
  extract URL|FILE [--base-url URL]                an article's title, summary, imageUrl, canonicalUrl,
                                                   publishedAt and text
  source:add --name N --type rss|web_scraping|manual [--feed URL] [--website URL]
             [--include a,b] [--exclude c,d] [--config JSON]
                                                   add a source (--config: its scraping config)
  ingest [--canonical]                             run one RSS ingestion cycle over every polled source
                                                   (--canonical prefers each new item's rel=canonical)
  discover [--source ID]                           discover URLs of every active Web Scraping source (or one):
                                                   per source found, queued, skipped_robots, skipped_known, errors
  queue [--status S] [--source ID] [--limit N]     the URL queue's rows (status queued|scraped|failed|all)
  scrape-queue [--source ID] [--limit N] [--ids a,b]
                                                   scrape queued URLs into pending stories
  parse-sitemap FILE|URL                           {kind, urls: [{loc, lastmod, news}], sitemaps: [{loc, lastmod}]}
  robots-check ROBOTS_FILE|URL --agent UA URL...   one line per URL: {url, allowed, crawlDelay}
  enhance-images [--limit N] [--story ID [--image URL]]
                                                   find the best image for stories needing work (or one story,
                                                   optionally with a given image): {processed, enhanced, failed,
                                                   skipped, details}; progress on stderr
  probe-image URL                                  an image's {url, width, height, type, bytes}, reading only its header
  facebook:check                                   the Page connection: {connected, page, tokenValid, permissions,
                                                   missingPermissions, expiresAt, neverExpires, error}, or
                                                   {connected: false, how}; exits 0 only when the Page is readable,
                                                   the token works and holds the permissions posting needs, else 1
  facebook:post --story ID [--message TEXT] [--at ISO] [--repost]
                                                   post a published story to the Page now, or at --at (a job the
                                                   server's worker runs); the message defaults to the composed one;
                                                   a story already on the Page needs --repost. Prints the post's row
                                                   (posted, failed, or pending with its time); exits 1 when it failed
  review --publish ID[,ID...] --category SLUG      publish pending stories in a category, or reject them (--reason
  review --reject ID[,ID...] [--reason TEXT]       is kept with each rejection): {published|rejected, skipped: [{storyId,
                                                   reason}]}; a story not pending is skipped with why
  triage [--limit N] [--source ID]                 the Pending list most likely first (newest first, score null,
                                                   before there is a ranking): {stories: [{id, title, score,
                                                   suggestedCategory: {slug, name, confidence} | null,
                                                   sameStory: {groupId, size} | null}], model: {trainedAt,
                                                   published, rejected} | null}; default limit 50
  source:stats [--days N]                          each source's yield over the last N days (default 30):
                                                   {days, since, sources: [{sourceId, name, status, broughtIn,
                                                   published, rejected, pending, publishRate, lastPublishedAt}]},
                                                   best yield first; publishRate = published / brought in
  backup FILE [--force]                            a consistent snapshot of the embedded database, written to FILE
                                                   (gzipped, owner-only): taken by the running server on DATA_DIR,
                                                   or read from DATA_DIR when none runs; --force replaces FILE
  restore FILE                                     load a backup into an empty (or new) DATA_DIR; prints what it holds
                                                   (on PostgreSQL both commands point to pg_dump and pg_restore)

Every command that reports prints JSON on stdout; errors are JSON on stderr with a non-zero exit.
The database is the PostgreSQL server Oddwire runs itself in DATA_DIR (default ./data), shared with a
running server, or the one at DATABASE_URL.`;
