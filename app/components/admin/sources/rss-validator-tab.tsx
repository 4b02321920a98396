/** The RSS Validator tab (placeholder until built). */
export function RssValidatorTab() {
  return null;
}
