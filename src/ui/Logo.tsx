export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg aria-hidden="true" width={size} height={size} viewBox="0 0 32 32">
      <rect width="32" height="32" rx="8" fill="#0f4c5c" />
      {[
        [7, 12, 8],
        [11, 9, 14],
        [15, 6, 20, '#ffb74d'],
        [19, 9, 14],
        [23, 11, 10],
      ].map(([x, y, h, c]) => (
        <rect key={String(x)} x={Number(x)} y={Number(y)} width="2.6" height={Number(h)} rx="1.3" fill={typeof c === 'string' ? c : '#fff'} />
      ))}
    </svg>
  );
}
