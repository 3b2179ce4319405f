"use client";

import { useEffect, useState } from "react";

/**
 * The provider's model names (`GET /api/models`), fetched once when `wanted` first turns
 * true; empty while loading or when the provider does not list them.
 */
export function useModelNames(wanted: boolean): readonly string[] {
  const [names, setNames] = useState<readonly string[] | null>(null);
  useEffect(() => {
    if (!wanted || names !== null) return;
    let live = true;
    fetch("/api/models")
      .then((r) => r.json() as Promise<{ models?: { id: string }[] }>)
      .then((a) => live && setNames((a.models ?? []).map((m) => m.id)))
      .catch(() => live && setNames([]));
    return () => {
      live = false;
    };
  }, [wanted, names]);
  return names ?? [];
}
