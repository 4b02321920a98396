import { useMemo } from "react";
import { FilterBar } from "~/app/components/admin/filter-bar";
import { STATUS_LABELS, urlQueueList, type StatusChoices, type UrlQueueFilters } from "./filters";

/** Source, Status and 'Search URL', on the back office's one filter bar. */
export function UrlQueueFiltersBar({ filters, statuses, sources }: { filters: UrlQueueFilters; statuses: StatusChoices; sources: { id: number; name: string }[] }) {
  const list = useMemo(() => urlQueueList(statuses), [statuses]);
  return (
    <FilterBar
      label="Filter the URL queue"
      idPrefix="queue"
      query={filters}
      list={list}
      searchLast
      search={{ field: "q", label: "Search URL", placeholder: "Part of a URL, e.g. /2025/" }}
      selects={[
        { field: "sourceId", label: "Source", options: [{ value: "", label: "All sources" }, ...sources.map((s) => ({ value: String(s.id), label: s.name }))] },
        { field: "status", label: "Status", width: "narrow", options: statuses.options.map((status) => ({ value: status, label: STATUS_LABELS[status] })) },
      ]}
    />
  );
}
