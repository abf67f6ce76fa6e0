// One file chosen by a field: dropped on it, or picked with its (hidden) file input through a
// button. Shared by the artwork picker and the intro and outro slots, so both take a drop the same
// way: the browser's own handling (opening the file in the tab) is always prevented, and a drop on
// a field that cannot take one now changes nothing.
import { useState, type DragEvent, type RefObject } from 'react';

/** The drop zone's handlers for `onFile`, and whether a file is being dragged over it. */
export function useFileDrop(enabled: boolean, onFile: (file: File | undefined) => void) {
  const [dragging, setDragging] = useState(false);
  const zone = {
    onDragOver: (e: DragEvent<HTMLElement>) => {
      e.preventDefault();
      if (enabled) setDragging(true);
    },
    onDragLeave: () => setDragging(false),
    onDrop: (e: DragEvent<HTMLElement>) => {
      e.preventDefault();
      setDragging(false);
      if (enabled) onFile(e.dataTransfer.files[0]);
    },
  };
  return { dragging, zone };
}

/**
 * The field's hidden file input, opened by the field's own button (`inputRef.current.click()`). It
 * is emptied after each choice so choosing the same file again is seen as a choice.
 */
export function FileInput({
  inputRef,
  id,
  accept,
  disabled,
  describedBy,
  invalid,
  onFile,
}: {
  inputRef: RefObject<HTMLInputElement | null>;
  id: string;
  accept: string;
  disabled: boolean;
  describedBy: string;
  invalid?: boolean;
  onFile: (file: File | undefined) => void;
}) {
  return (
    <input
      ref={inputRef}
      id={id}
      type="file"
      accept={accept}
      hidden
      disabled={disabled}
      aria-describedby={describedBy}
      aria-invalid={invalid ? true : undefined}
      onChange={(e) => {
        onFile(e.target.files?.[0]);
        e.target.value = '';
      }}
    />
  );
}
