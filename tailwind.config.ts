import type { Config } from "tailwindcss";

/** Loaded from app/globals.css with `@config`; Tailwind v4 reads the theme extensions below. */
const config: Config = {
  content: ["./app/**/*.{ts,tsx}", "./components/**/*.{ts,tsx}"],
  theme: {
    extend: {
      colors: {
        brand: {
          50: "#eef4ff",
          100: "#dbe6fe",
          500: "#3b5bdb",
          600: "#2f4ac0",
          700: "#253b99",
        },
      },
    },
  },
};

export default config;
