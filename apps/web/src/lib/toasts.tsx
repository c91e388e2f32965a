import { toast } from 'react-toastify';

/** A failure toast: the spec's text first, then what the server said, each findable on its own. */
export function failureToast(title: string, detail: string): void {
  toast.error(
    <div>
      <strong>{title}</strong>
      {detail === '' || detail === title ? null : <div>{detail}</div>}
    </div>,
  );
}
