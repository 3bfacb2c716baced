"""zsim: simulate Zhanguo: The First Empire and measure its balance."""

__version__ = "0.1.0"
