"""The course side of the labs, with no server: a student's hand-in (``handin``) and its printed
report (``report``), and an instructor's view of a whole class (``classroom`` reads and merges the
files, ``aggregate`` counts them, ``class_view`` draws them, ``gradebook`` writes the CSVs)."""
