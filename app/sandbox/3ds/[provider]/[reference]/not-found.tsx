export default function ThreeDsNotFound() {
  return (
    <div>
      <h1 className="text-lg font-semibold">No such 3-D Secure check</h1>
      <p className="mt-1 text-sm text-slate-600">The sandbox has no payment waiting under this link.</p>
    </div>
  );
}
