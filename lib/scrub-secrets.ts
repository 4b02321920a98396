/** Replaces secret values inside a text. */
export type SecretScrubber = (text: string) => string;

// A shorter value would scrub ordinary words out of every text; the secrets we hold are longer.
export const MIN_SECRET_LENGTH = 8;

/**
 * A scrubber for the given secret values: each is replaced by `replacement` as written, percent-encoded
 * (in a URL) and escaped (inside a JSON line). Built once from the configuration and passed to what
 * stores, shows or logs texts that come from outside (a Graph API error, a driver's message).
 */
export function secretScrubber(secrets: readonly (string | null | undefined)[], replacement = "[redacted]"): SecretScrubber {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret || secret.length < MIN_SECRET_LENGTH) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    forms.add(JSON.stringify(secret).slice(1, -1));
  }
  // Longest first: a secret that holds another goes whole.
  const ordered = [...forms].sort((a, b) => b.length - a.length);
  if (ordered.length === 0) return (text) => text;
  return (text) => ordered.reduce((out, form) => (out.includes(form) ? out.split(form).join(replacement) : out), text);
}
