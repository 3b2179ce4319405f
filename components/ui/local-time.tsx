"use client";

import { useSyncExternalStore } from "react";

const noop = () => () => {};

const FORMATS = {
  date: new Intl.DateTimeFormat("en", { dateStyle: "medium" }),
  dateTime: new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" }),
};

/**
 * A moment in the reader's own time zone. The server does not know that zone, and React
 * keeps server-rendered text when it hydrates, so the text is written only once hydrated
 * (the machine-readable `dateTime` is there from the start).
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
  const hydrated = useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
  return (
    <time className={className} dateTime={iso}>
      {hydrated ? FORMATS[format].format(new Date(iso)) : ""}
    </time>
  );
}
