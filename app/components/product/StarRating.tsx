export function StarRating({ average, count }: { average: number; count: number }) {
  if (count === 0) return null;
  const label = `Rated ${average.toFixed(2)} out of 5`;
  return (
    <div className="star-rating" role="img" aria-label={label}>
      <span style={{ width: `${(average / 5) * 100}%` }}>{label}</span>
    </div>
  );
}
