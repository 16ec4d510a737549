"use client";

import { createContext, useContext } from "react";

/** True while the server renders a form that loads on use (hydrateOnUse): its markup must show the values. */
export const ServerMarkupContext = createContext(false);

export const useServerMarkup = () => useContext(ServerMarkupContext) && typeof window === "undefined";
