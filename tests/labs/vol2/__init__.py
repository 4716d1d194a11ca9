"""Volume II labs: each file holds one lab's own physics facts."""
