#include "config.h"
#include "tui/tablenav.h"

static size_t page(const struct tablenav *t)
{
	return t->height > 1 ? (size_t)t->height - 1 : 1;
}

unsigned tablenav_request(struct tablenav *t, enum request req)
{
	size_t last = t->n ? t->n - 1 : 0;
	switch (req) {
	case REQ_MOVE_UP:
		if (t->cursor > 0)
			t->cursor--;
		break;
	case REQ_MOVE_DOWN:
		if (t->cursor < last)
			t->cursor++;
		break;
	case REQ_PAGE_UP:
		t->cursor = t->cursor > page(t) ? t->cursor - page(t) : 0;
		t->top = t->top > page(t) ? t->top - page(t) : 0;
		break;
	case REQ_PAGE_DOWN:
		t->cursor = t->cursor + page(t) < last ? t->cursor + page(t) : last;
		if (t->top + page(t) + (size_t)t->height <= t->n)
			t->top += page(t);
		break;
	case REQ_MOVE_FIRST:
		t->cursor = 0;
		break;
	case REQ_MOVE_LAST:
		t->cursor = last;
		break;
	default:
		return ACT_UNHANDLED;
	}
	tablenav_fit(t, t->height);
	return ACT_REDRAW;
}

void tablenav_fit(struct tablenav *t, int height)
{
	t->height = height > 0 ? height : 1;
	size_t h = (size_t)t->height;
	if (t->n == 0) {
		t->cursor = t->top = 0;
		return;
	}
	if (t->cursor >= t->n)
		t->cursor = t->n - 1;
	if (t->cursor < t->top)
		t->top = t->cursor;
	if (t->cursor >= t->top + h)
		t->top = t->cursor - h + 1;
	/* No empty rows at the bottom while rows above are hidden. */
	if (t->top + h > t->n)
		t->top = t->n > h ? t->n - h : 0;
}

unsigned tablenav_click(struct tablenav *t, int row, int button)
{
	if (button == 4 || button == 5) {
		for (int i = 0; i < 3; i++)
			tablenav_request(t, button == 4 ? REQ_MOVE_UP : REQ_MOVE_DOWN);
		return ACT_REDRAW;
	}
	if (button != 1 || row < 0 || t->top + (size_t)row >= t->n)
		return ACT_NONE;
	t->cursor = t->top + (size_t)row;
	return ACT_REDRAW;
}
