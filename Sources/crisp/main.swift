import CrispGraphics
print("crisp")
