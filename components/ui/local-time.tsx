"use client";

import { useHydrated } from "./use-hydrated";

const FORMATS = {
  date: new Intl.DateTimeFormat("en", { dateStyle: "medium" }),
  dateTime: new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" }),
};

/**
 * A moment in the reader's own time zone, written once hydrated (the server does not know
 * that zone); the machine-readable `dateTime` is there from the start.
 */
export function LocalTime({
  iso,
  format = "dateTime",
  className,
}: {
  iso: string;
  format?: keyof typeof FORMATS;
  className?: string;
}) {
  const hydrated = useHydrated();
  return (
    <time className={className} dateTime={iso}>
      {hydrated ? FORMATS[format].format(new Date(iso)) : ""}
    </time>
  );
}
