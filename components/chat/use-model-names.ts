"use client";

import { useEffect, useMemo } from "react";
import { loadModels, useModels } from "./model-catalogue";

/**
 * The provider's model names from the page's one model catalogue (`GET /api/models`,
 * `loadModels`), asked for when `wanted` first turns true; empty while loading, when the
 * request failed or when the provider does not list them.
 */
export function useModelNames(wanted: boolean): readonly string[] {
  const models = useModels();
  useEffect(() => {
    if (wanted) loadModels();
  }, [wanted]);
  return useMemo(
    () => (models.status === "ready" ? models.answer.models.map((m) => m.id) : []),
    [models],
  );
}
