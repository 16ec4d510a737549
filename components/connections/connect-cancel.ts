"use client";

import { createContext, useContext } from "react";

/** Cancel of a 'New connection' form: closes ConnectSection (the form is rendered by the page, so it cannot take a function prop). */
export const ConnectCancelContext = createContext<() => void>(() => {});

export const useConnectCancel = () => useContext(ConnectCancelContext);
