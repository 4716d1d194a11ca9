"""Volume II labs (Machine Learning Systems at Scale): one module ``v2_NN.py`` per lab."""
