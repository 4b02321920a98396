/** The 'Trigger RSS Ingestion' button with its progress and toasts (placeholder until built). */
export function IngestionTrigger() {
  return null;
}
