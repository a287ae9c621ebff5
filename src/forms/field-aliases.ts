/**
 * Problems reported under a name the form does not draw, and the field that shows them (and takes
 * the focus when one is clicked): the resolution control is 'width'; inpaint's missing mask is
 * reported on its `mask` port, and the painter (`mask_paint`) is where it is fixed. An alias
 * applies only on a node that has its target field.
 */
export const FIELD_ALIASES: Readonly<Record<string, string>> = { height: 'width', mask: 'mask_paint' };
