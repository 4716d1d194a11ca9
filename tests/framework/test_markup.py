from pylabs.framework.markup import h, join, raw


def test_text_children_are_escaped():
    assert h("p", None, "<script>") == "<p>&lt;script&gt;</p>"


def test_attribute_values_are_escaped():
    assert h("a", {"title": '"><img src=x>'}) == '<a title="&quot;&gt;&lt;img src=x&gt;"></a>'


def test_boolean_and_missing_attributes():
    assert h("input", {"disabled": True, "checked": False, "value": None}) == "<input disabled>"


def test_raw_is_not_escaped_and_lists_flatten():
    assert join(raw("<b>x</b>"), ["a", ["<"]]) == "<b>x</b>a&lt;"
