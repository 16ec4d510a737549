"use client";

export default function GlobalError({ reset }: { error: Error; reset: () => void }) {
  return (
    <html lang="en">
      <body>
        <main style={{ maxWidth: 480, margin: "6rem auto", fontFamily: "system-ui", textAlign: "center" }}>
          <h1>Something went wrong</h1>
          <p>The page could not be shown. Nothing you saved was lost.</p>
          <button type="button" onClick={reset}>
            Try again
          </button>
        </main>
      </body>
    </html>
  );
}
